"""Discard signals between partners: a discard denies the master of its suit.

A player who cannot follow the led suit and plays a card of another side suit discards it. At
the table, partners read a discard: it comes from a suit whose master (its highest card not yet
played) the discarder does not hold, so the partner knows where not to look for a winner. The
strong bot keeps this convention where its search finds it costs next to nothing, and reads its
partner's discards by it. A partner is not bound by it, so a sampled deal in which the partner
held the master of a suit it discarded from keeps ``SIGNAL_MISMATCH`` of its weight for each
such master instead of being ruled out.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.engine.fast import STRENGTH, SUIT_MASKS, Mask, cards_of
from games.engine.observation import Observation

from .knowledge import Knowledge
from .sampling import plays_in_order

#: The weight a sampled deal keeps for each master the partner held in a suit it discarded from.
SIGNAL_MISMATCH = 0.25


def master(suit: int, played: Mask, trump: int) -> int | None:
    """Return the highest card of side suit ``suit`` not in ``played``, None if all are."""
    left = cards_of(SUIT_MASKS[suit] & ~played)
    if not left:
        return None
    return max(left, key=lambda card: STRENGTH[trump][card])


def is_discard(trick: tuple[int, ...], card: int, trump: int) -> bool:
    """Say whether ``card`` on ``trick`` is a discard: neither the led suit nor a trump."""
    return bool(trick) and card >> 3 not in (trick[0] >> 3, trump)


def keeps_signal(k: Knowledge, card: int) -> bool:
    """Say whether playing ``card`` keeps the convention: a discard is never from a suit whose
    master this seat holds. A card that is not a discard keeps it."""
    if not is_discard(k.trick, card, k.trump):
        return True
    top = master(card >> 3, k.played | sum(1 << c for c in k.trick), k.trump)
    return top is None or not k.hand >> top & 1


def signalled_card(
    k: Knowledge, totals: dict[int, tuple[float, float]], best: int, slack: float
) -> int:
    """Return ``best``, or the best card within ``slack`` of its margin that keeps the convention.

    ``totals`` holds each card's summed sheet margin and card points over the sampled deals.
    """
    if keeps_signal(k, best):
        return best
    floor = totals[best][0] - slack
    kept = [card for card in totals if totals[card][0] >= floor and keeps_signal(k, card)]
    if not kept:
        return best
    return max(kept, key=lambda card: totals[card])


@dataclass(frozen=True, slots=True)
class PartnerDiscards:
    """The masters of the suits the partner discarded from, still unplayed and not ours."""

    partner: int
    masters: Mask

    def likelihood(self, hands: tuple[Mask, ...]) -> float:
        """Return the weight of the partner's discards given its hand in ``hands``."""
        return SIGNAL_MISMATCH ** (hands[self.partner] & self.masters).bit_count()


def read_discards(k: Knowledge, observation: Observation) -> list[PartnerDiscards]:
    """Return the partner's discards as a reading of the sampled deals (none without one)."""
    partner = k.partner
    if partner is None:
        return []
    masters = 0
    for seat, card, trick, played in plays_in_order(observation):
        if seat == partner and is_discard(trick, card, k.trump):
            top = master(card >> 3, played, k.trump)
            if top is not None:
                masters |= 1 << top
    # A master played since, or in this seat's hand, tells the samples nothing.
    masters &= k.unseen
    return [PartnerDiscards(partner, masters)] if masters else []
