import html


def render_menu(settings, pages):
    items = []
    for label, slug in settings["menu"]:
        if slug not in pages:
            raise ValueError(f"site {settings['name']!r}: menu entry {label!r} links to missing page {slug!r}")
        items.append(f'<a href="{pages[slug].url}">{html.escape(label)}</a>')
    return "<nav>" + " | ".join(items) + "</nav>"


def render_page(page, settings, pages):
    return (f'<html lang="{settings["lang"]}"><head><title>{html.escape(page.title)}</title></head><body>'
            f"{render_menu(settings, pages)}<main>{html.escape(page.body)}</main>"
            f"<footer>{settings['footer']}</footer></body></html>")
