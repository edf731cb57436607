// The lint of the board's plain ES modules and their node tests (make lint-js): ESLint's
// recommended rules, with the globals of where each file runs. No bundler, no build step: the
// files linted are the files served.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    // Modules the browser loads as they are.
    files: ["static/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
  },
  {
    // theme.js is a classic script, loaded blocking in <head> (it says why).
    files: ["static/js/theme.js"],
    languageOptions: { sourceType: "script" },
  },
  {
    // The service worker's code: a classic script the worker at /sw.js imports (it says why).
    files: ["static/js/sw.js"],
    languageOptions: { sourceType: "script", globals: globals.serviceworker },
  },
  {
    // Node's test runner, and the benches that drive the board's modules in Node.
    files: ["tests/js/**/*.mjs", "bench/**/*.mjs"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.node },
  },
  {
    files: ["eslint.config.mjs"],
    languageOptions: { sourceType: "module", globals: globals.node },
  },
];
