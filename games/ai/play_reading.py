"""Reading the opponents' cards: how likely a sampled deal makes the cards they played.

An opponent who fed a ten to a trick their partner held, or ducked with a small card where the
ace would have won, says something about the rest of their hand. The play model is the rules of
thumb (``heuristic.play_card``): a deal whose hands would have led an opponent to play what
they played, by those rules, is worth more than one where they would have played otherwise,
which keeps ``MISMATCH`` of the weight for each card played otherwise. Players are not the rules
of thumb, so no card rules a deal out.

The opponents are read. A partner of the strong bot plays by search, which the rules of thumb
describe much less well: its cards are read only when asked for, with a mismatch of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.fast import Mask, legal_mask, partner_winning
from games.engine.observation import Observation

from .heuristic import play_card
from .knowledge import Knowledge, _learn_from_trick

#: The weight a deal keeps for each opponent's card that the rules of thumb would not have played.
MISMATCH = 0.2


@dataclass(frozen=True, slots=True)
class PastPlay:
    """One card an opponent played, with the table as it stood when they played it."""

    card: int
    trick: tuple[int, ...]  # the cards before it in its trick
    leader: int
    played: Mask  # every card played before it
    forbidden: tuple[Mask, ...]  # what the table knew then of who holds what
    later: Mask  # this card and the cards its seat played after it
    counts: tuple[int, ...]  # the cards each seat held then


class SeatPlays:
    """A seat's cards so far, and how likely a hand makes them (``likelihood``)."""

    __slots__ = ("_cache", "k", "mismatch", "plays", "seat")

    def __init__(
        self, k: Knowledge, seat: int, plays: tuple[PastPlay, ...], mismatch: float = MISMATCH
    ) -> None:
        self.k = k
        self.seat = seat
        self.plays = plays
        self.mismatch = mismatch
        # Late in a round many samples give a seat the same hand: each hand is read once.
        self._cache: dict[Mask, float] = {}

    def likelihood(self, hands: tuple[Mask, ...]) -> float:
        """Return the weight of this seat's cards given its hand in ``hands``, up to a factor."""
        hand = hands[self.seat]
        weight = self._cache.get(hand)
        if weight is None:
            weight = 1.0
            for play in self.plays:
                if self.rules_of_thumb(play, hand | play.later) != play.card:
                    weight *= self.mismatch
            self._cache[hand] = weight
        return weight

    def rules_of_thumb(self, play: PastPlay, hand: Mask) -> int:
        """Return the card the rules of thumb pick for this seat holding ``hand`` at ``play``."""
        k = self.k
        protected = k.protection and partner_winning(play.trick, play.leader, k.trump)
        legal = legal_mask(hand, play.trick, k.trump, partner_winning=protected)
        if legal.bit_count() == 1:
            return legal.bit_length() - 1
        then = Knowledge(
            seat=self.seat,
            trump=k.trump,
            hand=hand,
            played=play.played,
            trick=play.trick,
            leader=play.leader,
            counts=play.counts,
            forbidden=play.forbidden,
            known=k.known,
            bidders=k.bidders,
            value=k.value,
            multiplier=k.multiplier,
            points=k.points,
            tricks_won=k.tricks_won,
            players=k.players,
            protection=k.protection,
            deck=k.deck,
        )
        return play_card(then, legal)


def read_plays(
    k: Knowledge, observation: Observation, *, partner_mismatch: float | None = None
) -> list[SeatPlays]:
    """Return the opponents' cards so far, seat by seat, each with the table as it stood.

    With ``partner_mismatch`` the partner's cards are read too, each card the rules of thumb
    would not have played keeping that share of a deal's weight.
    """
    mismatch = dict.fromkeys(k.opponents, MISMATCH)
    if partner_mismatch is not None and k.partner is not None:
        mismatch[k.partner] = partner_mismatch
    players = k.players
    tricks = [(t.leader, tuple(c.index for c in t.cards)) for t in observation.tricks]
    tricks.append((k.leader, k.trick))
    order = [
        ((leader + i) % players, card) for leader, cards in tricks for i, card in enumerate(cards)
    ]
    held = list(k.counts)
    for seat, _ in order:
        held[seat] += 1  # back to the hands as dealt for the play
    later = [0] * players
    for seat, card in order:
        later[seat] |= 1 << card  # every card each seat played, shed as the replay passes it
    forbidden = [0] * players
    played = 0
    found: dict[int, list[PastPlay]] = {seat: [] for seat in mismatch}
    for leader, cards in tricks:
        for position, card in enumerate(cards):
            seat = (leader + position) % players
            if seat in found:
                before = list(forbidden)
                trick = cards[:position]
                _learn_from_trick(before, leader, list(trick), k.trump, players, k.protection)
                found[seat].append(
                    PastPlay(card, trick, leader, played, tuple(before), later[seat], tuple(held))
                )
            played |= 1 << card
            later[seat] &= ~(1 << card)
            held[seat] -= 1
        _learn_from_trick(forbidden, leader, list(cards), k.trump, players, k.protection)
    return [
        SeatPlays(k, seat, tuple(plays), mismatch[seat]) for seat, plays in found.items() if plays
    ]
