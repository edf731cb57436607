"""bench/harness: the one percentile and the table rows every bench prints with, and the CPU
count of the benches' servers."""

from __future__ import annotations

import math
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.harness import cpu_seconds, markdown_header, markdown_row, percentile, precise_cpu_seconds, row


def test_the_percentile_is_the_value_at_that_fraction_of_the_sorted_values():
    values = [5, 1, 4, 2, 3, 6, 8, 7, 10, 9]
    assert percentile(values, 0.5) == 6
    assert percentile(values, 0.9) == 10
    assert percentile(values, 0.99) == 10
    assert percentile(values, 0.0) == 1


def test_the_percentile_of_one_value_is_that_value_and_of_none_is_nan():
    assert percentile([42.0], 0.99) == 42.0
    assert math.isnan(percentile([], 0.5))


def test_a_row_pads_each_cell_to_its_width_left_when_negative_the_last_width_repeating():
    assert row("tier", 12, "3.5", widths=(-6, 5)) == "tier       12    3.5"
    assert row("a", "b", widths=(-3, 2), sep="") == "a   b"
    assert row(None, widths=(4,)) == "None"


def test_a_markdown_header_is_the_titles_and_a_rule_under_each():
    assert markdown_header("tier", "score") == "| tier | score |\n| --- | --- |"
    assert markdown_row("easy", 230, "100%") == "| easy | 230 | 100% |"


@pytest.mark.skipif(not Path("/proc/self/sched").exists(), reason="this kernel keeps no scheduler's file")
def test_the_precise_cpu_count_of_a_waiting_server_sees_less_than_a_tick_and_agrees_with_the_ticks():
    # A server as the benches measure it: it works on a request, then waits for the next (the
    # scheduler brings its count up to date when it stops to wait).
    code = "import sys\nfor line in sys.stdin:\n    sum(range(int(line)))\n    print(flush=True)"
    server = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def request(work: int) -> None:
        server.stdin.write(f"{work}\n")
        server.stdin.flush()
        server.stdout.readline()
        time.sleep(0.02)  # waiting again

    try:
        request(10)
        me = [server.pid]
        before, ticks = precise_cpu_seconds(me), cpu_seconds(me)
        request(20_000)  # well under a 10 ms tick
        assert 0 < precise_cpu_seconds(me) - before < 0.01
        request(3_000_000)
        spent, ticks_spent = precise_cpu_seconds(me) - before, cpu_seconds(me) - ticks
        assert spent > 0.01 and abs(spent - ticks_spent) < 0.025  # the ticks' count floored to 10 ms
    finally:
        server.stdin.close()
        server.wait(timeout=10)


def test_a_process_that_is_gone_counts_nothing():
    assert precise_cpu_seconds([2**22 + 12345]) == 0 and cpu_seconds([2**22 + 12345]) == 0
