"""TRF-16 import/export (records 001, 142, 152, 162, 260) and the ``pairing-engine`` CLI."""

import glob
import os

import pytest

from pairing.cli import main
from pairing.domain.model import Code, Colour, ForbiddenGroup, Outcome, Player, Tournament, record_round
from pairing.domain.swiss import pair_swiss_round
from pairing.domain.trf import TrfError, export_trf, import_trf

DATA = os.path.join(os.path.dirname(__file__), "data", "tiebreak")


@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(DATA, "t*.trf")))[:10])
def test_trf_roundtrip_keeps_history_and_scores(path):
    t = import_trf(open(path).read())
    back = import_trf(export_trf(t))
    assert back.history == t.history
    assert back.rounds_planned == t.rounds_planned and back.points == t.points
    assert [back.score(p.id) for p in back.players] == [t.score(p.id) for p in t.players]


def test_trf_reference_file_fields():
    t = import_trf(open(os.path.join(DATA, "t000.trf")).read())
    assert len(t.players) == 115 and t.rounds_done == 5 and t.points.win == 2
    e = t.entries(1)[0]
    assert (e.opponent, e.colour, e.code) == (57, Colour.FIRST, Code.WIN)
    assert t.entries(3)[1].code is Code.HALF_BYE and t.entries(113)[3].code is Code.PAIRING_BYE
    assert t.score(13) == 10.0


def test_trf_2026_records_roundtrip():
    t = Tournament(
        players=(Player(1, "A"), Player(2, "B"), Player(3, "C")),
        rounds_planned=7,
        forbidden=(ForbiddenGroup(1, 5, (1, 2)),),
        top_seed_colour=Colour.SECOND,
    )
    text = export_trf(t)
    assert "142 7" in text and "152 B" in text and "162  W 2.0    D 1.0" in text
    assert "260   1   5    1    2" in text
    back = import_trf(text)
    assert back.forbidden == t.forbidden and back.top_seed_colour is Colour.SECOND and back.rounds_planned == 7
    from pairing.domain.model import PointSystem

    odd = Tournament(players=t.players, rounds_planned=3, points=PointSystem(pairing_bye=1))
    assert "P 1.0" in export_trf(odd) and import_trf(export_trf(odd)).points.points(Code.PAIRING_BYE) == 1


@pytest.mark.parametrize(
    "text,msg",
    [
        ("", "no player lines"),
        ("001 abcd", "too short"),
        ("001    1      A" + " " * 76 + "   2 w 1", "does not exist"),
        ("001    1      A" + " " * 76 + "   1 w X", "unknown result"),
        ("152 Q\n001    1      A" + " " * 40, "152"),
    ],
)
def test_trf_malformed_input_gives_clear_error(text, msg):
    with pytest.raises(TrfError, match=msg):
        import_trf(text)


def _write(tmp_path, t):
    p = tmp_path / "in.trf"
    p.write_text(export_trf(t))
    return p


def test_cli_writes_javafo_pairing(tmp_path):
    t = Tournament(players=tuple(Player(i, f"P{i}") for i in range(1, 6)), rounds_planned=3)
    out = tmp_path / "out.txt"
    assert main([str(_write(tmp_path, t)), "-p", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert lines[0] == "3"
    pairs = [tuple(map(int, x.split())) for x in lines[1:]]
    assert pairs == pair_swiss_round(t).pairs()
    assert pairs[-1][1] == 0  # bye written as "id 0"
    assert sorted(x for p in pairs for x in p if x) == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("line_end", ["\r\n", "\r"])
def test_cli_reads_a_file_with_other_line_ends_alike(tmp_path, capsys, line_end):
    """The file is read as bytes (latin-1, without a text stream's newline translation): CR LF
    and CR line ends and a latin-1 name pair as the same file with LF."""
    t = Tournament(players=tuple(Player(i, f"Pé{i}", rating=2000 - i) for i in range(1, 8)), rounds_planned=3)
    t = record_round(t, pair_swiss_round(t), {i: Outcome.FIRST_WINS for i in range(3)})
    plain = tmp_path / "plain.trf"
    plain.write_bytes(export_trf(t).encode("latin-1"))
    other = tmp_path / "other.trf"
    other.write_bytes(export_trf(t).replace("\n", line_end).encode("latin-1"))
    assert main([str(plain), "-p"]) == 0
    expected = capsys.readouterr().out
    assert main([str(other), "-p"]) == 0
    assert capsys.readouterr().out == expected and expected.startswith("4\n")


def test_cli_exit_1_when_no_legal_pairing(tmp_path):
    t = Tournament(
        players=(Player(1, "A", unit="x"), Player(2, "B", unit="x")),
        rounds_planned=1,
        forbidden=(ForbiddenGroup(1, 1, (1, 2)),),
    )
    assert main([str(_write(tmp_path, t)), "-p", str(tmp_path / "o")]) == 1


def test_cli_exit_2_on_malformed_file(tmp_path, capsys):
    p = tmp_path / "bad.trf"
    p.write_text("001 abc\n")
    assert main([str(p), "-p"]) == 2
    assert "line 1" in capsys.readouterr().err


def test_cli_honours_byes_written_for_the_next_round(tmp_path, capsys):
    t = Tournament(players=tuple(Player(i, f"P{i}") for i in range(1, 6)), rounds_planned=3)
    text = export_trf(t).splitlines()
    text = [ln + "  0000 - H" if ln.startswith("001    5") else ln for ln in text]
    p = tmp_path / "in.trf"
    p.write_text("\n".join(text) + "\n")
    assert main([str(p), "-p"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "2" and all("5" not in ln.split() for ln in out[1:])


def test_pair2_deterministic_across_processes(tmp_path):
    """Same TRF, different hash seeds, separate interpreters: byte-identical pairing output."""
    import subprocess
    import sys

    from pairing.domain.model import Outcome, record_round

    t = Tournament(players=tuple(Player(i, f"P{i}", rating=2000 - i) for i in range(1, 22)), rounds_planned=5)
    for outcome in (Outcome.FIRST_WINS, Outcome.DRAW):
        t = record_round(t, pair_swiss_round(t), {i: outcome for i in range(10)})
    p = _write(tmp_path, t)
    outs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        r = subprocess.run(
            [sys.executable, "-m", "pairing.cli", str(p), "-p"], capture_output=True, text=True, env=env, check=True
        )
        outs.append(r.stdout)
    assert outs[0] == outs[1] and outs[0].startswith("11\n")


# (command line, read without argparse): the usual lines are, the others are left to argparse
_COMMAND_LINES = [
    (["in.trf", "-p"], True),
    (["in.trf", "-p", "out.txt"], True),
    (["in.trf", "--pair", "out.txt"], True),
    (["--topscorer-exemption", "in.trf", "-p"], True),
    (["in.trf", "-p", "out.txt", "--topscorer-exemption"], True),
    (["in.trf", "-p", "--topscorer-exemption"], True),
    (["--topscorer-exemption", "in.trf", "-p", "--topscorer-exemption"], True),
    (["in.trf", "-p", "-"], False),
    (["in.trf", "--topscorer-exemption", "-p", "out.txt"], False),
    (["in.trf", "-p", "--topscorer-exemption", "out.txt"], False),
    (["-p", "out.txt", "in.trf"], False),
    (["in.trf", "--pa", "out.txt"], False),
    (["in.trf", "-pout.txt"], False),
    (["in.trf", "-p", "--", "out.txt"], False),
    (["in.trf", "-p", "-5"], False),
    (["in.trf", "-p", "out.txt", "more"], False),
    (["in.trf"], False),
    (["-h"], False),
    ([], False),
]


def _read(reader, argv):
    try:
        return reader(argv)
    except SystemExit:
        return "refused"


@pytest.mark.parametrize(("argv", "plain"), _COMMAND_LINES, ids=[" ".join(argv) for argv, _ in _COMMAND_LINES])
def test_cli_reads_the_usual_command_lines_as_argparse_does(argv, plain, capsys):
    """The usual command lines are read without argparse (its import costs a tenth of a
    process), to what argparse reads; every other line is argparse's, with its messages."""
    from pairing import cli

    assert (cli._plain_arguments(argv) is not None) == plain
    expected = _read(cli._argparse_arguments, argv)
    assert _read(cli._arguments, argv) == expected
    if plain:
        assert cli._plain_arguments(argv) == expected


# what the installed ``pairing-engine`` script runs (``-m`` would import runpy's importlib and contextlib)
_CONSOLE_SCRIPT = "import sys; from pairing.cli import run; sys.exit(run())"


def test_cli_process_pairs_without_the_modules_it_needs_not(tmp_path):
    """The ``pairing-engine`` process (``run``) answers without importing argparse, typing,
    networkx or pydantic, nor dataclasses (the records it defines are written by hand, with the
    re, copy and inspect dataclasses imports), contextlib or importlib; gacrux's random, its
    tiebreaks (with datetime) and json (with re) are imported only if used. The process leaves
    by ``os._exit``, so its imports are read from ``-X importtime``; a misspelt name would match
    nothing, so the test also finds some that are imported."""
    import subprocess
    import sys

    from pairing.domain.model import Outcome, record_round

    t = Tournament(players=tuple(Player(i, f"P{i}", rating=2000 - i) for i in range(1, 13)), rounds_planned=5)
    t = record_round(t, pair_swiss_round(t), {i: Outcome.FIRST_WINS for i in range(6)})
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", _CONSOLE_SCRIPT, str(_write(tmp_path, t)), "-p"],
        capture_output=True,
        text=True,
        check=True,
    )
    imported = {line.split("|")[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert done.stdout.startswith("6\n")
    assert {"enum", "decimal", "gacrux.pairingdutch", "pairing.adapters.dutch.fast"} <= imported
    unneeded = {"argparse", "typing", "networkx", "pydantic", "random", "gacrux.tiebreak", "datetime"}
    unneeded |= {"dataclasses", "inspect", "copy", "json", "re", "contextlib", "importlib", "warnings"}
    unneeded |= {"pairing.adapters.dutch._blossom_wide", "encodings.latin_1"}  # wide weights only; str decodes latin-1
    assert not unneeded & imported
