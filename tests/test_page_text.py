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


def test_every_setting_has_a_form_field_a_pasted_log_fills():
    """Each Settings field but the two a log never states (the average request length, the entry
    point: the form's own) is in app.js's LOG_FIELDS, with a form control in index.html: a setting
    a pasted log states then survives the page's recompute, and a user can set it by hand."""
    from kvcalc.settings import Settings
    js = (WEB / "app.js").read_text(encoding="utf-8")
    block = js[js.index("const LOG_FIELDS = ["):]
    block = block[:block.index("];")]
    fields = dict(re.findall(r'\["(\w+)", "([\w-]+)"', block))
    page = (WEB / "index.html").read_text(encoding="utf-8")
    wanted = set(Settings.__dataclass_fields__) - {"avg_tokens", "entrypoint"}
    assert wanted - set(fields) == set(), "settings a pasted log cannot put on the form"
    missing = [cid for cid in fields.values() if f'id="{cid}"' not in page]
    assert missing == []
