"""Adapters to other game frameworks: OpenSpiel games and an ISMCTS bot, PettingZoo
environments. The frameworks are optional dependencies (``kozyr[openspiel]``,
``kozyr[pettingzoo]``), so nothing is imported here: import the submodule you need.

- :mod:`kozyr.interop.openspiel`: ``python_kozyr_imperial`` and ``python_kozyr_emperor``.
- :mod:`kozyr.interop.ismcts`: OpenSpiel's ISMCTS as a kozyr bot (kind ``"ismcts"``).
- :mod:`kozyr.interop.pettingzoo`: ``imperial_env`` and ``emperor_env`` (AEC).
- :mod:`kozyr.interop.sampling`, :mod:`kozyr.interop.encoding`: the hidden-hand sampler
  and the observation vectors they share.
"""
