"""Statement HTML becomes Markdown with TeX math as `$...$` and images kept as links."""

from __future__ import annotations

from cpbot.scrapers.codeforces.parse import parse_problems
from cpbot.scrapers.markdown import to_markdown
from tests.scrapers.scraper_support import fixture_path


def test_codeforces_triple_dollar_math_becomes_single_dollar_and_display_math_double() -> None:
    md = to_markdown("<p>Let $$$a_i \\le 10^9$$$.</p><p>$$$$$$\\sum_{i=1}^n a_i$$$$$$</p>")
    assert md == "Let $a_i \\le 10^9$.\n\n$$\\sum_{i=1}^n a_i$$"


def test_mathjax_rendered_pages_use_the_tex_source_and_drop_the_rendering() -> None:
    html = (
        '<p>Mix <span class="MathJax_Preview"></span><span class="MathJax"><span>2ml</span></span>'
        '<script type="math/tex" id="MathJax-Element-1">2ml</script> of it.</p>'
        '<script type="math/tex; mode=display">x^2</script>'
    )
    assert to_markdown(html) == "Mix $2ml$ of it.\n\n$$x^2$$"


def test_images_become_markdown_links_with_absolute_urls() -> None:
    md = to_markdown(
        '<p>See <img class="tex-graphics" src="/predownloaded/ab.png" alt="pic"></p>', "https://codeforces.com/"
    )
    assert md == "See ![pic](https://codeforces.com/predownloaded/ab.png)"


def test_lists_bold_code_and_preformatted_text_are_kept() -> None:
    html = (
        "<ul><li>first <b>bold</b></li><li><code>x = 1</code></li></ul>"
        '<pre class="verbatim">a  b\n  c</pre><ol><li>one</li><li>two</li></ol>'
    )
    assert to_markdown(html) == "- first **bold**\n- `x = 1`\n\n```\na  b\n  c\n```\n\n1. one\n2. two"


def test_statement_sections_are_split_and_interaction_kept_in_the_statement() -> None:
    (problem,) = parse_problems(fixture_path("codeforces", "cf_2220D2_interactive.html").read_bytes())
    assert problem.statement.startswith("**The difference between the easy version and hard version")
    assert "## Interaction" in problem.statement
    assert "$2n+1$" in problem.statement and "$$$" not in problem.statement
    assert problem.input_spec.startswith("Each test contains multiple test cases.")
    assert problem.notes.startswith("The secret array is $a = [1, 1, 1, 2, 2]$.")


def test_note_images_of_a_statement_are_links() -> None:
    (problem,) = parse_problems(fixture_path("codeforces", "cf_1974A_modern_images.html").read_bytes())
    assert "![](https://espresso.codeforces.com/69bfe873bb73df843b5e6cfe368944566e59deae.png)" in problem.notes
