"""MkDocs hooks of the documentation site (mkdocs.yml): the README is the site's home page.

The README lives at the repository's root and links to ``docs/page.md``; on the site it is
``index.md`` beside the pages, so those links lose their ``docs/`` prefix. A link to a file of
the checkout outside docs/ (code, the Dames README) becomes the path in code type, since the
site does not carry those files."""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
LINK = re.compile(r"\[([^\]]+)\]\((?!https?://|#)([^)\s]+)\)")


def on_files(files, config):
    """Add README.md as the site's ``index.md`` (docs/ has no index page of its own)."""
    files.append(File.generated(config, "index.md", content=(ROOT / "README.md").read_text(encoding="utf-8")))
    return files


def on_page_markdown(markdown, page, config, files):
    """Re-point the home page's links (module doc); other pages are left as written."""
    if page.file.src_uri != "index.md":
        return markdown

    def repoint(match: re.Match) -> str:
        text, target = match.groups()
        if target.startswith("docs/"):
            return f"[{text}]({target.removeprefix('docs/')})"
        return text if text.strip("`") == target else f"{text} (`{target}`)"

    return LINK.sub(repoint, markdown)
