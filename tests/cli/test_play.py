"""Whole games in the terminal, played from scripted input as a person would type it."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator

import pytest

from zar.cli import main
from zar.farkle import score, selections


class Transcript:
    """Feeds scripted entries to the game and keeps everything it writes."""

    def __init__(self, entries: Iterable[str] | Callable[[Transcript, str], str]) -> None:
        self.lines: list[str] = []
        self.prompts: list[str] = []
        self._answer = entries if callable(entries) else None
        self._entries: Iterator[str] = iter(()) if callable(entries) else iter(entries)

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self._answer is not None:
            return self._answer(self, prompt)
        try:
            return next(self._entries)
        except StopIteration:
            raise EOFError from None

    def write(self, line: str) -> None:
        self.lines.extend(line.split("\n"))

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def last_dice(self) -> list[int]:
        """The faces on the last dice line the game showed."""
        for i in range(len(self.lines) - 1, 0, -1):
            if self.lines[i - 1].startswith("[1]"):
                return [int(f) for f in self.lines[i].split()]
        raise AssertionError("no dice shown yet")


def play(
    argv: list[str], script: Iterable[str] | Callable[[Transcript, str], str]
) -> tuple[int, Transcript]:
    transcript = Transcript(script)
    status = main(argv, read=transcript.read, write=transcript.write)
    return status, transcript


def test_yams_whole_game_writing_each_box_in_turn() -> None:
    """Thirteen rounds, one box each (a..m), then the final card and the winner."""
    status, out = play(
        ["play", "yams", "-p", "Ali", "--seed", "3", "--lang", "en"], "abcdefghijklm"
    )
    assert status == 0
    assert len(out.prompts) == 13
    assert "== Game over ==" in out.text
    assert "Winner: Ali" in out.text
    assert out.lines[-1].startswith("1. Ali")


def test_yams_wrong_entries_are_explained_and_asked_again() -> None:
    script = ["z", "7", "a", "a", "b", *list("cdefghijklm")]
    status, out = play(["play", "yams", "-p", "Ali", "--seed", "3", "--lang", "en"], script)
    assert status == 0
    assert "Not understood: 'z'" in out.text
    assert "Not understood: '7'" in out.text  # there are five dice
    assert "Ones is already filled" in out.text
    assert "Winner: Ali" in out.text


def test_yams_keeps_dice_and_throws_at_most_three_times() -> None:
    """Keeping dice throws the others; after the third throw only a box is accepted."""
    script = ["12", "0", "12", "a", *list("bcdefghijklm")]
    status, out = play(["play", "yams", "-p", "Ali", "--seed", "5", "--lang", "en"], script)
    assert status == 0
    assert "Throw 3/3" in out.text
    # The digits typed after the third throw were not a box: explained, asked again.
    assert "Not understood: '12'. Letter of the box to write" in out.text


def test_yams_in_turkish_by_default_with_the_computer() -> None:
    status, out = play(["play", "yams", "-p", "Ayşe", "--ai", "--seed", "11"], "abcdefghijklm")
    assert status == 0
    assert "Tur 1/13 · Ayşe" in out.text
    assert "Tur 13/13 · IA" in out.text
    assert "IA atıyor:" in out.text
    assert "Üst toplam" in out.text
    assert "Küçük seri" in out.text
    assert "Kazanan" in out.text


def test_yatzy_against_the_computer_playing_to_win() -> None:
    """Scandinavian Yatzy's fifteen rounds (a..o), the computer at the play-to-win level; its
    card has no Penta bonus row, Yams' has."""
    argv = ["play", "yams", "-p", "Ali", "--ai", "--level", "win", "--rules", "scandinavian"]
    status, out = play([*argv, "--seed", "3", "--lang", "en"], "abcdefghijklmno")
    assert status == 0
    assert out.lines[0] == "Rules: Scandinavian Yatzy"  # said first, as the page says it
    assert len(out.prompts) == 15
    assert "Round 15/15 · Computer" in out.text
    assert "One pair" in out.text
    assert "Penta bonus" not in out.text
    assert "== Game over ==" in out.text
    _, yams = play(["play", "yams", "-p", "Ali", "--seed", "3", "--lang", "en"], "abcdefghijklm")
    assert "Penta bonus" in yams.text
    assert yams.lines[0] == "Rules: Yams (the game's rules)"


def test_yams_sacrifice_message() -> None:
    """Seed 000: when no open box scores, the app says a box must be sacrificed."""
    message = "Açık hiçbir kutu puan getirmiyor: birini feda etmek gerekiyor"
    # Writing each box in turn on these dice reaches a throw where nothing open scores.
    status, out = play(["play", "yams", "-p", "Ali", "--seed", "3"], "abcdefghijklm")
    assert status == 0
    assert message in out.text


def _sensible_person(out: Transcript, prompt: str) -> str:
    """A player who first tries a lone die that cannot score, then sets aside the most
    points, and banks from 350 on."""
    if prompt.startswith("Dice to set aside"):
        dice = out.last_dice()
        if out.prompts[-2:-1] != [prompt]:  # first answer for this throw
            for i, face in enumerate(dice):
                if face in (2, 3, 4, 6) and dice.count(face) == 1 and len(dice) < 6:
                    return str(i + 1)
        best = max(selections(dice).items(), key=lambda item: item[1])[0]
        chosen: list[int] = []
        for face in best:
            chosen.append(next(i for i, f in enumerate(dice) if f == face and i not in chosen))
        assert score([dice[i] for i in chosen]) == selections(dice)[best]
        return "".join(str(i + 1) for i in chosen)
    points = int(prompt.rsplit("+", 1)[1].rstrip(": ").replace(",", ""))
    return "b" if points >= 350 else "t"


def test_10000_whole_game_against_the_computer() -> None:
    argv = ["play", "10000", "-p", "Ali", "--ai", "--target", "5000", "--seed", "2", "--lang", "en"]
    status, out = play(argv, _sensible_person)
    assert status == 0
    assert "Dernier tour !" in out.text
    assert "cannot score" in out.text  # the lone die was refused, then a legal choice taken
    assert "Winner" in out.text
    assert "Computer banks: +" in out.text  # the seeds' "IA" in Turkish and French
    ranking = [line for line in out.lines if line[:2] in ("1.", "2.")]
    assert len(ranking) == 2


def test_10000_under_a_bank_minimum_throws_on_until_it_may_bank() -> None:
    argv = ["play", "10000", "-p", "Ali", "--ai", "--target", "5000", "--seed", "2"]
    status, out = play([*argv, "--lang", "en", "--rules", "bank-500"], _sensible_person)
    assert status == 0
    assert "more points before banking: throwing again" in out.text
    banks = [
        int(p.rsplit("+", 1)[1].rstrip(": ").replace(",", "")) for p in out.prompts if "+" in p
    ]
    assert min(banks) >= 500  # banking is offered only from the minimum on
    assert "Winner" in out.text


def test_10000_under_a_penalty_warns_before_the_third_lost_turn() -> None:
    """Under three-lost-500, a player who never banks loses turn after turn: before the
    third the game warns, then takes the 500 (the input ends there)."""

    def never_banks(out: Transcript, prompt: str) -> str:
        if "lost three turns in a row" in out.text:
            raise EOFError
        if prompt.startswith("Dice to set aside"):
            dice = out.last_dice()
            best = max(selections(dice).items(), key=lambda item: item[1])[0]
            chosen: list[int] = []
            for face in best:
                chosen.append(next(i for i, f in enumerate(dice) if f == face and i not in chosen))
            return "".join(str(i + 1) for i in chosen)
        return "t"

    argv = ["play", "10000", "-p", "Ali", "--seed", "5", "--lang", "en"]
    status, out = play([*argv, "--rules", "three-lost-500"], never_banks)
    assert status == 1  # left unfinished
    warned = out.lines.index("Two lost turns in a row: one more costs 500")
    taken = out.lines.index("Ali lost three turns in a row: −500")
    assert out.lines[warned - 1].endswith("Turn lost")  # the second, then the warning
    assert warned < taken


def test_10000_refusal_in_turkish() -> None:
    """Design: a refused die says why, "Tek başına 2 puan getirmiyor"."""
    # Seed 1 throws 2 5 1 3 1 4 first; the lone 2 is refused.
    status, out = play(["play", "10000", "-p", "Ali", "--seed", "1"], ["1"])
    assert status == 1  # the script ends before the game: left unfinished
    assert "Tek başına 2 puan getirmiyor" in out.text
    assert "Oyun yarıda bırakıldı." in out.text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["-p", "A", "-p", "a"], "Two players are called a"),
        ([f"-p{i}" for i in "1234567"], "At most 6 people"),
        (["-p", "   "], "A player needs a name"),
        (["-p", "x" * 25], "at most 24 characters"),
        (["-p", "bad\tname"], "no control characters"),
        (["-p", "Computer", "--ai"], "Computer is the computer's name"),
        (["--ai", "--level", "genius"], "--level: yams has the levels easy"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, _ = play(["play", "yams", "--lang", "en", *argv], [])
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert message in err


def test_the_console_script_plays_from_standard_input() -> None:
    """The installed command, through a real pipe: no traceback when the input ends."""
    result = subprocess.run(
        [sys.executable, "-m", "zar", "play", "yams", "--seed", "4", "--lang", "en"],
        input="a\nb\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert "Game left unfinished." in result.stdout
    assert "Traceback" not in result.stderr
