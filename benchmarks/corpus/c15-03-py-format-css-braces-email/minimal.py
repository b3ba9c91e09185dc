EMAIL_HTML = """<style>
  table.items td { padding: 4px 8px; border-bottom: 1px solid #ddd; }
</style>
<p>Hi {first_name},</p>
"""


def order_context(order):
    return {"first_name": order["name"].split()[0]}


def render_email(order):
    return EMAIL_HTML.format(**order_context(order))


render_email({"name": "Jana Novak"})
