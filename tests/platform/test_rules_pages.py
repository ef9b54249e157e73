"""The rules on the site: a public page per game with the player's guide and the rulings beside it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from games.platform import registry
from games.platform.guides import to_html
from games.platform.services import games as game_services
from tests.sitting import all_here

pytestmark = pytest.mark.django_db
GAMES = {
    "horse_race": ("Blackout Middle Horse Race", "What you submit each round", "Order within a round"),
    "cards_table": ("Cards on the Table", "The seven ways to score", "Heat indicator"),
    "middle_marathon": ("Middle Marathon", "The pieces' powers", "Clocks and reserve time"),
    "arms_race": ("Arms Race", "Wild cards", "The deck and the deal"),
}
# The rules texts the guides retell (shared/ sits beside the repository, or beside the worktrees' folder).
SEEDS = next(
    (
        p
        for p in (
            Path(settings.BASE_DIR).parent / "shared" / "seeds",
            Path(settings.BASE_DIR).parents[1] / "shared" / "seeds",
        )
        if p.is_dir()
    ),
    None,
)
SEED_OF = {"horse_race": "000_", "cards_table": "002_", "middle_marathon": "003_", "arms_race": "004_"}


@pytest.mark.parametrize("slug", GAMES)
def test_each_game_has_a_public_rules_page_with_its_guide_and_its_rulings(client, slug):
    name, guide_heading, ruling_heading = GAMES[slug]
    response = client.get(reverse("rules", args=[slug]))
    assert response.status_code == 200
    page = response.content.decode()
    assert f"<h1>{name} " in page
    # The guide's sections, one level under the page's "The player's guide"; the rulings' under "The rulings".
    guide, rulings = page.split('id="rulings-title"')
    assert re.search(
        rf"<h3 id=\"guide-[a-z-]+\">{re.escape(guide_heading)}</h3>", guide.replace("&#x27;", "'")
    )
    assert re.search(rf"<h3 id=\"ruling-[a-z-]+\">{re.escape(ruling_heading)}", rulings)
    assert "<h1>" not in guide.split("<h1>", 2)[-1]  # the files' own titles are not a second h1
    assert "<blockquote>" in rulings or "&quot;" in rulings  # the sentences the rulings read
    # Anyone may read the rules; a visitor's browser may keep the page a while.
    assert response["Cache-Control"] == "private, max-age=600"


def test_the_rules_index_lists_the_four_games_and_a_type_without_a_guide_has_no_page(client):
    page = client.get(reverse("rules-index")).content.decode()
    for slug, (name, _, _) in GAMES.items():
        assert f'href="/rules/{slug}/">{name}</a>' in page
    assert "Tally" not in page  # the tests' toy type has no guide
    assert client.get(reverse("rules", args=["tally"])).status_code == 404
    assert client.get("/rules/no-such-game/").status_code == 404


def test_the_game_page_the_season_and_the_home_page_link_to_the_rules(
    client, season, hank, alice, bob, tally
):
    duel = game_services.game_create(
        season=season, game_type="middle_marathon", name="The duel", hosts=[hank], actor=hank
    )
    game_services.game_seat(game=duel, user=alice, actor=hank)
    game_services.game_seat(game=duel, user=bob, actor=hank)
    game_services.game_start(game=duel, actor=hank)
    all_here(duel)  # the players sit down: the clocks run
    client.force_login(alice)
    rules = reverse("rules", args=["middle_marathon"])
    game_page = client.get(reverse("game", args=[duel.id])).content.decode()
    assert (
        f'<a class="rules-link" href="{rules}">Rules<span class="visually-hidden"> of Middle Marathon'
        in game_page
    )
    for page in (reverse("season", args=[season.id]), reverse("home")):
        body = client.get(page).content.decode()
        assert f'href="{rules}">rules<span class="visually-hidden"> of Middle Marathon</span>' in body, page
    # The toy game has no guide: no link that would answer 404.
    assert "rules-link" not in client.get(reverse("game", args=[tally.id])).content.decode()


def test_every_real_game_type_names_a_guide_that_exists_and_a_rulings_file():
    for slug in GAMES:
        kind = registry.get(slug)
        assert Path(kind.guide_file).is_file(), slug
        assert (Path(settings.BASE_DIR) / "docs" / "rulings" / f"{slug}.md").is_file(), slug


def test_the_host_run_death_match_shows_the_host_run_rulings(client):
    """Both host-run types play by one rulings file, docs/rulings/host_run.md: each rules page has it."""
    for slug in ("host_run", "host_run_death"):
        body = client.get(reverse("rules", args=[slug])).content.decode()
        assert 'id="rulings-title"' in body, slug


@pytest.mark.skipif(SEEDS is None, reason="the rules texts (shared/seeds) are not beside the repository")
@pytest.mark.parametrize("slug", GAMES)
def test_each_guide_is_in_our_own_words(slug):
    """No run of ten words of the rules text is pasted into the guide (short phrases are bound to repeat)."""

    def words(text):
        # Words only: a table of places and points is bound to be the same numbers.
        return re.findall(r"\b[a-z]+\b", text.lower().replace("'", ""))

    def runs(ws, n=10):
        return {" ".join(ws[i : i + n]) for i in range(len(ws) - n + 1)}

    seed = next(SEEDS.glob(SEED_OF[slug] + "*.txt")).read_text(encoding="utf-8")
    guide = Path(registry.get(slug).guide_file).read_text(encoding="utf-8")
    pasted = runs(words(guide)) & runs(words(seed))
    assert not pasted, sorted(pasted)


def test_markdown_is_shown_as_text_when_it_holds_html_and_headings_move_under_the_page_title():
    html = to_html(
        "# Title\n\n## Part\n\n<script>alert(1)</script>\n", prefix="guide", shift=1, drop_title=True
    )
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert '<h3 id="guide-part">Part</h3>' in html and "Title" not in html
