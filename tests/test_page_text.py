"""The page's static text is the English of web/i18n.js: what a reader sees before the script
runs (or without it) is what the script would write (app.js sets each ``data-i18n`` element's
textContent from STRINGS), so the two cannot drift apart unnoticed."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

WEB = Path(__file__).resolve().parents[1] / "web"
ELEMENT = re.compile(r'<([a-z0-9]+)[^>]*?data-i18n="([^"]+)"[^>]*>([\s\S]*?)</\1>')


def strings(lang: str) -> dict[str, str]:
    """One language's block of STRINGS (``key: "text",`` lines; JSON string syntax)."""
    js = (WEB / "i18n.js").read_text(encoding="utf-8")
    start = js.index(f"\n  {lang}: {{")
    end = js.find("\n  },", start)
    block = js[start:end]
    return {m.group(1): json.loads(m.group(2))
            for m in re.finditer(r'^    (\w+): ("(?:[^"\\]|\\.)*"),?$', block, re.M)}


def text(fragment: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", fragment))).strip()


def test_static_text_is_the_english_the_script_writes():
    en = strings("en")
    assert len(en) > 200, "the parser of i18n.js found too little: has its layout changed?"
    page = (WEB / "index.html").read_text(encoding="utf-8")
    elements = ELEMENT.findall(page)
    assert len(elements) > 100
    drift = {key: (text(inner), en.get(key)) for _, key, inner in elements
             if en.get(key) is None or text(inner) != text(en[key])}
    assert drift == {}, drift


def test_every_page_key_has_chinese():
    en, zh = strings("en"), strings("zh")
    assert set(en) == set(zh), (set(en) ^ set(zh))
