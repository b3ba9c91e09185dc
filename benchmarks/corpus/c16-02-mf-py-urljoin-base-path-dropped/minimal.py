from urllib.parse import urlencode, urljoin


class ApiClient:
    base_url = "https://billing.example.com/api/v2"

    def url_for(self, endpoint, **params):
        url = urljoin(self.base_url, endpoint)
        return f"{url}?{urlencode(params)}"


class ReplayTransport:
    recorded = {"GET https://billing.example.com/api/v2/invoices?page=1&per_page=2": {}}

    def send(self, method, url):
        body = self.recorded[f"{method} {url}"]
        return body


ReplayTransport().send("GET", ApiClient().url_for("invoices", page=1, per_page=2))
