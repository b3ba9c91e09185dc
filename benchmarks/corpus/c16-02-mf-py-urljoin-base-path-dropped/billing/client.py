import json
from urllib.parse import urlencode, urljoin


class ApiClient:
    def __init__(self, settings, transport):
        self.base_url = settings["base_url"]
        self.timeout = settings["timeout"]
        self.transport = transport

    def url_for(self, endpoint, **params):
        url = urljoin(self.base_url, endpoint)
        return f"{url}?{urlencode(params)}" if params else url

    def get(self, endpoint, **params):
        status, text = self.transport.send("GET", self.url_for(endpoint, **params), self.timeout)
        if status != 200:
            raise RuntimeError(f"GET {endpoint}: HTTP {status}")
        return json.loads(text)
