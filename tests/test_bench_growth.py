"""bench.growth's gameplay table (issue 18 item 5: moves/s and p99 for 1, 2 and 3 replicas in
the same bench): each row is read from bench.gameplay_load's output by the parser bench.compare
uses, an output it does not know stops the bench, and the table shows the factor against the
fewest replicas. Samples are outputs in bench.gameplay_load's format; no timing is asserted."""

from __future__ import annotations

import sys

import pytest

from bench import growth
from bench._compare_parsers import BenchOutputError


def gameplay_output(replicas: int, saturation: int, p99: float, cpu: float, answered: int = 1900) -> str:
    return f"""\
gameplay load: 512 live games, 20 moves each, service processes={replicas}, PostgreSQL + RabbitMQ, 2 cores
                                   req/s    p50 ms    p95 ms    p99 ms     ratio
baseline GET /healthz               2100       4.1      12.8      20.7      1.00
POST move, saturation         {saturation:>12}     133.0     133.1     133.1      0.07
POST move, live 2000/s        {answered:>12}      11.4      38.6 {p99:>9.1f}      0.90
live phase: 2002 moves/s offered (due in its window), {answered} answered in it (the row's req/s; fewer when the service falls behind the games' schedule)
live phase as the service measured it (request in to answer out): 61.8% <= 5 ms, 85.8% <= 10 ms
moves: 14437  refused: 0  games ended by five: 4
service CPU at saturation: {cpu:.2f} ms per move, 1.13 cores busy on average
goal: 2000 moves/s offered by 512 live games (think time 0.256 s), p99 < 50 ms: NOT MET
"""


def test_a_row_is_the_saturation_rate_live_rates_latency_and_cpu_per_move():
    run = growth.GameplayRun.from_output(2, gameplay_output(2, 1450, 61.5, 0.84))
    assert run == growth.GameplayRun(
        replicas=2, saturation=1450.0, offered=2002.0, live=1900.0, live_p50=11.4, live_p99=61.5, cpu_per_move=0.84
    )


@pytest.mark.parametrize(
    "output",
    [
        "",
        "Traceback (most recent call last):\n  boom\n",
        gameplay_output(1, 900, 40.0, 1.0).replace("service CPU at saturation", "service CPU"),
        gameplay_output(1, 900, 40.0, 1.0).replace("POST move, saturation", "POST move, closed loop"),
        # the moves offered and answered are two figures: an output without the offered one is refused
        gameplay_output(1, 900, 40.0, 1.0).replace("live phase: 2002 moves/s offered", "live phase:"),
    ],
)
def test_an_output_the_parser_does_not_know_stops_the_bench(output):
    with pytest.raises(BenchOutputError, match="output not recognised"):
        growth.GameplayRun.from_output(1, output)


def test_the_table_shows_each_replica_count_against_the_fewest(capsys):
    runs = [
        growth.GameplayRun.from_output(count, gameplay_output(count, rate, 50.0, 1.0))
        for count, rate in ((1, 2000), (2, 3000), (3, 3600))
    ]
    growth.print_gameplay_table(runs, {"--games": "512", "--seconds": "8"}, (3.5, 4.25))
    lines = capsys.readouterr().out.splitlines()
    header = next(index for index, line in enumerate(lines) if line.strip().startswith("replicas"))
    rows = [line.split() for line in lines[header + 1 : header + 4]]
    assert [(row[0], row[1], row[2]) for row in rows] == [
        ("1", "2000", "1.00"),
        ("2", "3000", "1.50"),
        ("3", "3600", "1.80"),
    ]
    assert "bench.gameplay_load --games 512 --seconds 8" in lines[header - 1]
    assert "load average (1 min) 3.50 before, 4.25 after" in lines[header + 4]


def test_each_run_is_bench_gameplay_load_at_the_sizes_given():
    argv = growth.gameplay_argv(3, {"--games": "512", "--moves": "20", "--seconds": "8"})
    assert argv == [sys.executable, "-m", "bench.gameplay_load", "--replicas", "3"] + [
        "--games",
        "512",
        "--moves",
        "20",
        "--seconds",
        "8",
    ]


@pytest.mark.parametrize(
    "argv", [["--only", "gameplays"], ["--only", "gameplay", "--replicas", "1,x"], ["--replicas", "0"]]
)
def test_an_unknown_table_or_replica_count_is_refused(argv):
    with pytest.raises(SystemExit) as refused:
        growth.main(argv)
    assert refused.value.code == 2


def test_the_live_columns_are_the_moves_offered_and_those_answered(capsys):
    """A service behind the games' schedule answers fewer moves than it is offered: the table shows
    both, and a note names the replica counts that fell behind."""
    runs = [
        growth.GameplayRun.from_output(1, gameplay_output(1, 461, 1915.6, 0.44, answered=470)),
        growth.GameplayRun.from_output(2, gameplay_output(2, 2400, 40.0, 0.44, answered=1998)),
    ]
    growth.print_gameplay_table(runs, {"--games": "512"}, (1.0, 1.0))
    lines = capsys.readouterr().out.splitlines()
    header = next(index for index, line in enumerate(lines) if line.strip().startswith("replicas"))
    assert lines[header].split()[5:9] == ["live", "offered", "live", "answered"]
    assert [line.split()[3:5] for line in lines[header + 1 : header + 3]] == [["2002", "470"], ["2002", "1998"]]
    assert "live moves/s answered below those offered (1 replica(s))" in lines[header + 3]
