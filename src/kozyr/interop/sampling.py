"""Guessing the hidden hands of a deal from one seat's observation (determinization).

The interop layer uses the bots' samplers, the one sampler of each game, so an OpenSpiel
resampling and a kozyr search draw their worlds the same way:
:func:`sample_imperial_hidden` is :func:`kozyr.bots.imperial.sampler.sample_hidden` and
:func:`sample_emperor_hidden` is :func:`kozyr.bots.emperor.sampler.sample_hidden`. Each
returns one guess of every seat's hand (the observer's entry is his own hand) that agrees
with everything the observer knows, ready for ``State.from_observation(obs, hidden)``;
an observation no deal fits raises :class:`SamplingError` (a ``ValueError``).

What the guesses respect (the samplers' module docs say how they draw):

- **both games**: hand sizes; the observer's hand and every played card are nobody else's;
  cards known to be in a hand are in it; a seat that has shown out of a suit holds none.
- **Imperial**: shown cards (marked imperials, declared honours, a white hand, the
  3-player trump card); the 2-player turn-up; the observation's ``voids``; honours: every
  honour held at the deal was declared and shown (I6), so an honour that is neither shown
  nor played lies in the observer's hand or, with 2 players, in the stock.
- **Emperor**: ``known`` cards (the shown trump card, hands given away in swaps, and
  elimination), ``voids``; with 3 players the 13 undealt cards may hold any unseen card
  (the round-1 trump card is public and always among them).
"""

from __future__ import annotations

from kozyr.bots.emperor.sampler import sample_hidden as sample_emperor_hidden
from kozyr.bots.imperial.sampler import sample_hidden as sample_imperial_hidden
from kozyr.bots.matching import SampleError as SamplingError

__all__ = ["SamplingError", "sample_emperor_hidden", "sample_imperial_hidden"]
