"""The technique guide: each technique of the engine's catalogue in plain words, with a worked
example the engine found, arranged for the /learn/ pages."""
