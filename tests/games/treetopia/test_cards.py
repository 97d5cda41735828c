"""The card data file and the need language (RULINGS TT-1, TT-2)."""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import pairwise
from pathlib import Path

import msgspec
import pytest

from service.games.treetopia import GAME
from service.games.treetopia.cards import (
    CARDS,
    DATA,
    SYMBIOSES,
    All,
    Any_,
    CardDataError,
    Count,
    Sum,
    _load,
    compile_need,
    describe,
    plantable,
)
from tests.games.treetopia.odds import Odds
from tests.games.treetopia.tables import DESERT, ICY, PALM, SWAMP, card

TYPE_IDS = [t.id for t in DATA.types]
ENV_IDS = [e.id for e in DATA.environments]
DATA_FILE = Path(__file__).parents[3] / "service" / "games" / "treetopia" / "cards.json"


@cache
def odds() -> Odds:
    return Odds(list(CARDS))


@cache
def chances() -> tuple[float, ...]:
    return tuple(odds().chance(i) for i in range(len(CARDS)))


def test_deck_is_three_cards_of_each_type_in_each_environment_tt1() -> None:
    assert len(CARDS) == 48
    assert Counter((c.type, c.environment) for c in CARDS) == {
        (t, e): 3 for t in range(4) for e in range(4)
    }
    assert {c.sun for c in CARDS} == {1, 2, 3} and {c.water for c in CARDS} == {1, 2, 3}
    assert {c.hope for c in CARDS} == {2, 3, 4, 5}


def test_rulebook_example_need_belongs_to_the_icy_landscape_palm_tree() -> None:
    icy_palm = CARDS[33]
    assert icy_palm.name == "Icy Landscape Palm Tree"
    assert describe(icy_palm.need) == "exactly 2 Icy Landscape and exactly 2 Swamp"
    assert icy_palm.hope == 5
    hand = [33, card(PALM, SWAMP), card(0, ICY), card(1, SWAMP)]
    assert 33 in plantable(hand)
    assert 33 not in plantable([33, card(PALM, SWAMP), card(0, ICY), card(1, DESERT)])


def test_needs_are_unique() -> None:
    assert len({msgspec.json.encode(c.need) for c in CARDS}) == 48


def test_harder_needs_never_pay_fewer_points_tt1() -> None:
    """Sorted from easiest to hardest (chance on hands holding the tree), points never fall."""
    by_chance = sorted(range(48), key=lambda i: -chances()[i])
    points = [CARDS[i].hope for i in by_chance]
    assert points == sorted(points)
    for easier, harder in pairwise(by_chance):
        if CARDS[easier].hope != CARDS[harder].hope:
            assert chances()[easier] > chances()[harder]


def test_every_need_can_be_met_and_can_fail() -> None:
    assert all(0 < p < 1 for p in chances())
    assert round(chances()[33], 4) == round(11 * 66 / 16215, 4)  # 1 more Icy and 2 Swamp


def test_every_part_of_a_combined_need_matters() -> None:
    """No part of an and/or need is always true or never true beside the others."""
    for i, c in enumerate(CARDS):
        if isinstance(c.need, All | Any_):
            parts = c.need.all if isinstance(c.need, All) else c.need.any
            for k in range(len(parts)):
                rest = parts[:k] + parts[k + 1 :]
                smaller = rest[0] if len(rest) == 1 else type(c.need)(rest)
                test = compile_need(smaller, TYPE_IDS, ENV_IDS)
                assert odds().chance(i, test) != chances()[i], f"card {i}: part {k} is idle"


def test_symbiosis_cards_are_the_six_type_pairs_tt2() -> None:
    assert sorted(SYMBIOSES) == [(a, b) for a in range(4) for b in range(a + 1, 4)]


@pytest.mark.parametrize(
    ("need", "error"),
    [
        (Count(of="oak", at_least=1), "unknown"),
        (Count(of="palm", exactly=1, at_least=1), "one bound"),
        (Count(of="palm", at_least=5), "one bound"),
        (Sum(of="wind", at_least=5), "sun or water"),
        (All(all=(Count(of="palm", at_least=1),)), "two parts"),
    ],
)
def test_malformed_needs_are_rejected(need: object, error: str) -> None:
    with pytest.raises(CardDataError, match=error):
        compile_need(need, TYPE_IDS, ENV_IDS)  # type: ignore[arg-type]


def test_data_file_is_validated_at_load(tmp_path: Path) -> None:
    raw = msgspec.json.decode(DATA_FILE.read_bytes())
    raw["cards"][1]["need"] = raw["cards"][0]["need"]
    bad = tmp_path / "cards.json"
    bad.write_bytes(msgspec.json.encode(raw))
    with pytest.raises(CardDataError, match="share a need"):
        _load(bad)
    raw = msgspec.json.decode(DATA_FILE.read_bytes())
    raw["cards"][5]["hope"] = 6
    bad.write_bytes(msgspec.json.encode(raw))
    with pytest.raises(CardDataError, match="hope"):
        _load(bad)
    raw = msgspec.json.decode(DATA_FILE.read_bytes())
    raw["symbioses"][0]["types"] = ["palm", "palm"]
    bad.write_bytes(msgspec.json.encode(raw))
    with pytest.raises(CardDataError, match="symbiosis"):
        _load(bad)


def test_catalog_lists_every_card_with_its_need_in_words() -> None:
    catalog = GAME.catalog()
    assert len(catalog["cards"]) == 48
    assert catalog["cards"][33]["needText"] == "exactly 2 Icy Landscape and exactly 2 Swamp"
    assert catalog["cards"][33]["need"]["need"] == "and"
    assert len(catalog["symbioses"]) == 6
    msgspec.json.encode(catalog)


def test_rules_page_lists_every_need_with_its_points() -> None:
    page = (Path(__file__).parents[3] / "docs" / "rules" / "treetopia.md").read_text()
    for c in CARDS:
        row = f"| {c.id} | {c.name} | {c.sun} | {c.water} | {c.hope} | {describe(c.need)} | "
        assert row + f"{100 * chances()[c.id]:.1f}% |" in page, c.id
