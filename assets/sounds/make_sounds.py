"""Writes the app's sounds (run it to rebuild them; they are committed as small WAV files).

All are synthesised here from plain arithmetic with the standard library: nothing recorded,
nothing downloaded. `whistle.wav`: a referee's pea whistle, a high tone trilled by the pea
(a fast wobble of pitch and loudness). `roll.wav`: a die tumbling, a few short clicks of
noise, each quieter and closer together, like a cube settling on the table. `chime.wav`: a
phone's "your turn", two soft bell strokes, the second a fourth higher.
"""

from __future__ import annotations

import math
import random
import struct
import wave
from pathlib import Path

RATE = 22050
HERE = Path(__file__).resolve().parent


def write(name: str, samples: list[float]) -> None:
    with wave.open(str(HERE / name), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(b"".join(struct.pack("<h", int(max(-1.0, min(1.0, s)) * 30000)) for s in samples))


def envelope(t: float, length: float, attack: float = 0.01, release: float = 0.06) -> float:
    return min(1.0, t / attack, max(0.0, (length - t) / release))


def whistle(length: float = 0.7) -> list[float]:
    out, phase = [], 0.0
    for i in range(int(RATE * length)):
        t = i / RATE
        trill = math.sin(2 * math.pi * 32 * t)  # the pea rattling in the chamber
        phase += 2 * math.pi * (2900 + 140 * trill) / RATE
        tone = math.sin(phase) + 0.25 * math.sin(2 * phase)
        out.append(0.55 * tone * (0.8 + 0.2 * trill) * envelope(t, length))
    return out


def roll(length: float = 0.55, knocks: int = 7, seed: int = 6) -> list[float]:
    # A fixed number of knocks: the gaps shrink geometrically, so "until the sound is over"
    # could converge short of its end and never stop.
    rng = random.Random(seed)
    out = [0.0] * int(RATE * length)
    at, gap, loud = 0.0, 0.11, 0.9
    for _ in range(knocks):
        start = int(at * RATE)
        for j in range(int(0.018 * RATE)):  # one knock: a burst of noise dying away fast
            if start + j < len(out):
                out[start + j] += loud * rng.uniform(-1, 1) * math.exp(-j / (0.0035 * RATE))
        at += gap * rng.uniform(0.8, 1.2)
        gap *= 0.78
        loud *= 0.8
    return out


def chime(length: float = 0.6) -> list[float]:
    out = [0.0] * int(RATE * length)
    for start, pitch in ((0.0, 880.0), (0.16, 1174.7)):  # A5, then D6
        for i in range(int(RATE * start), len(out)):
            t = i / RATE - start
            bell = math.sin(2 * math.pi * pitch * t) + 0.3 * math.sin(2 * math.pi * 2.76 * pitch * t)
            out[i] += 0.4 * bell * math.exp(-t / 0.12) * min(1.0, t / 0.004)
    return [s * envelope(i / RATE, length, attack=0.001) for i, s in enumerate(out)]


if __name__ == "__main__":
    write("whistle.wav", whistle())
    write("roll.wav", roll())
    write("chime.wav", chime())
