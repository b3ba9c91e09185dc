"""Credentials in the command forms and config lines of tools the earlier rules did not know (round 30's
not-promised families, and round 31's after its report, written from the tools' own documentation): a password
given positionally or piped, a community string, a key in a URL path named for it, wallet keys, join tokens, a
protocol's own syntax. Each with ordinary text of the same shape that stays."""

from __future__ import annotations

import pytest

from reportkit.redact import is_secret_env_name, redact_text

_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


@pytest.mark.parametrize(("text", "secret"), [
    ("::add-mask::S3cr3tValue99", "S3cr3tValue99"),
    ("C:\\> net user alice Winter2024! /add", "Winter2024!"),
    ("net user bob Pa55word", "Pa55word"),
    ("schtasks /Create /TN job /TR c:\\x.exe /RU admin /RP Hunter2Hunter2 /SC DAILY", "Hunter2Hunter2"),
    ("echo 'Tr0ub4dor&3' | kinit alice@EXAMPLE.COM", "Tr0ub4dor&3"),
    ("echo alice:Sup3rS3cret | sudo chpasswd", "Sup3rS3cret"),
    ("echo hunter2pass | docker login --password-stdin -u bob registry.io", "hunter2pass"),
    ("addauth digest admin:ZkP4ssw0rd", "ZkP4ssw0rd"),
    ("net ads join -U Administrator%J0inP4ss", "J0inP4ss"),
    ("cache_peer parent.example.com parent 3128 0 login=proxyuser:Pr0xyP4ss", "Pr0xyP4ss"),
    ("snmp-server community Xk9sD3cret RO", "Xk9sD3cret"),
    ("rocommunity myS3cretComm 10.0.0.0/8", "myS3cretComm"),
    ('AUTHENTICATE "torcontrolpw"', "torcontrolpw"),
    ("/msg NickServ IDENTIFY mynick n1ckP4ss", "n1ckP4ss"),
    ("""wpa_cli set_network 0 psk '"wifiP4ssword"'""", "wifiP4ssword"),
    ("iwconfig wlan0 key s:wepk3y", "wepk3y"),
    ("hdbuserstore SET DEFAULT hana:30015 SYSTEM H4naP4ss", "H4naP4ss"),
    ("mkstore -wrl /w -createCredential orcl scott T1gerP4ss", "T1gerP4ss"),
    (".LOGON tdhost/dbc,Td4P4ss", "Td4P4ss"),
    ('acct = Account.from_key("0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")',
     "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"),
    ("xprv" + (_B58 * 2)[:107], (_B58 * 2)[:107]),
    ("docker swarm join --token SWMTKN-1-49nj1cmql0jkz5s954yi3oex3nedyz0fb0xx14ie39trti4wxv-8vxv8rssmk743ojnwacrr2e7c "
     "192.168.99.100:2377", "8vxv8rssmk743ojnwacrr2e7c"),
    ("K10aaaabbbbccccddddeeeeffff00001111222233334444555566667777888899::server:0123456789abcdef0123456789abcdef",
     "0123456789abcdef0123456789abcdef"),
    ("https://api.openweathermap.org/data/2.5/weather?q=London&appid=b6907d289e10d714a6e88b30761fae22",
     "b6907d289e10d714a6e88b30761fae22"),
    ("racadm -r 10.0.0.5 -u root -p calvinPass1 getsysinfo", "calvinPass1"),
    ("openfortivpn vpn.example.com:443 -u alice -p F0rtiP4ss", "F0rtiP4ss"),
    ("vsql -h db -U dbadmin -w V3rticaP4ss", "V3rticaP4ss"),
    ("curl -X POST https://maker.ifttt.com/trigger/door/with/key/dXk4Ab9QzLm2Pq7Rs3Tu1v", "dXk4Ab9QzLm2Pq7Rs3Tu1v"),
    ("https://mainnet.infura.io/v3/9aa3d95b3bc440fa88ea12eaa4456161", "9aa3d95b3bc440fa88ea12eaa4456161"),
    ('mnemonic = "abandon ability able about above absent absorb abstract absurd abuse access accident"', "absurd"),
])
def test_a_command_forms_credential_is_redacted(text, secret):
    out = redact_text(text, home="")
    assert secret not in out and "<redacted" in out


@pytest.mark.parametrize("text", [
    "the net user count grew by 5% this quarter",
    "net user growth rate",
    "echo hello | grep h",
    "login=admin",
    "python -m pytest -U",
    "ratio 50% -U flag",
    "https://graph.facebook.com/x?appid=1234567890123&x=1",
    "https://api.example.com/v1/users/list_all_active_users",
    "https://github.com/pytorch/pytorch/blob/v2/torch/nn/modules/batchnorm.py",
    "https://api.example.com/v1/CheckoutSessionsController",
    "the instruction mnemonic is MOV",
])
def test_ordinary_text_of_the_same_shape_stays(text):
    assert redact_text(text, home="") == text


@pytest.mark.parametrize(("name", "secret"), [("WALLET_MNEMONIC", True), ("SEED_PHRASE", True),
                                              ("RECOVERY_PHRASE", True), ("SEED", False), ("PASS_PHRASE_LEN", False)])
def test_wallet_words_are_named_secrets(name, secret):
    assert is_secret_env_name(name) is secret


@pytest.mark.parametrize(("text", "secret"), [
    ("isql -U sa -PSyb4seP4ss -S PROD", "Syb4seP4ss"),
    ("isql -U sa -P Syb4seP4ss -S PROD", "Syb4seP4ss"),
    ('hdbsql -n hana:30015 -u SYSTEM -p H4naP4ss2 "select 1"', "H4naP4ss2"),
    ("signtool sign /f cert.pfx /p C3rtP4ss! /tr http://ts", "C3rtP4ss!"),
    ("dotnet nuget add source https://pkgs/x/index.json -n feed -u bob -p NuG3tP4ss", "NuG3tP4ss"),
    ("mc admin user add myminio newuser M1n10UserP4ss", "M1n10UserP4ss"),
    ("ACL SETUSER alice on >Al1ceP4ss ~cached:* +get", "Al1ceP4ss"),
    ("user worker on >W0rkerP4ss ~* &* +@all", "W0rkerP4ss"),
    ("createUser snmpadmin SHA Auth3ntP4ss AES Pr1vP4ss99", "Pr1vP4ss99"),
    ("createUser snmpadmin SHA Auth3ntP4ss AES Pr1vP4ss99", "Auth3ntP4ss"),
    ("Unseal Key 1: 3Wv5YRkzBmR1Gg3Xv+nLPmXH0fPTvqkR+wZq1G0s9p2a", "3Wv5YRkzBmR1Gg3Xv"),
    ("CONNECT\nlogin:guest\npasscode:St0mpP4ss\n", "St0mpP4ss"),
    ('user = "alice:CurlP4ss9"', "CurlP4ss9"),
    ("alice:{PLAIN}D0v3c0tP4ss:1000:1000::/home/alice", "D0v3c0tP4ss"),
    ("$USER3$=N4giosP4ss", "N4giosP4ss"),
    ("K 8\npassword\nV 11\nSvnP4ss2024\nK 15\nsvn:realmstring", "SvnP4ss2024"),
    ("remotepass = Imap4P4ss!", "Imap4P4ss!"),
    ("mysqli.default_pw = PhpP4ss77", "PhpP4ss77"),
])
def test_a_tools_own_password_syntax_is_redacted(text, secret):
    out = redact_text(text, home="")
    assert secret not in out and "<redacted" in out


@pytest.mark.parametrize("text", [
    "$USER1$=/usr/lib/nagios/plugins", 'user = "1000:1000"', "user nobody on", "bypass = true", "use_pw = True",
    "the passcode: is shown on screen", "ACL SETUSER alice on ~* +@all", "K 8\nusername\nV 5\nalice",
    "compass = north", "user alice has > 3 items", "default_pw = None",
])
def test_the_same_syntax_without_a_password_stays(text):
    assert redact_text(text, home="") == text


@pytest.mark.parametrize(("text", "secret"), [
    ("printf 'Sw4rmP4ss!' | docker secret create db_pw -", "Sw4rmP4ss!"),
    (repr(b"*2\r\n$4\r\nAUTH\r\n$9\r\nR3disP4ss\r\n"), "R3disP4ss"),
    ("*3\r\n$4\r\nAUTH\r\n$5\r\nalice\r\n$9\r\nR3disP4ss\r\n", "R3disP4ss"),
    ("curl -fsS -m 10 https://hc-ping.com/0e5a3c44-9d2b-4b8e-a3f1-7c2d9e8f1a2b", "0e5a3c44-9d2b-4b8e-a3f1-7c2d9e8f1a2b"),
    ("rollbar.init('3f9a2b7c1d4e5f60718293a4b5c6d7e8', 'production')", "3f9a2b7c1d4e5f60718293a4b5c6d7e8"),
    ("uplink access import main 1" + "3Xk9" * 30, "3Xk9" * 30),
    ('resource "db" "main" {\n  password = <<EOT\nHclP4ss!99\nEOT\n}', "HclP4ss!99"),
    (r'{"\\u0070\\u0061ssword": "JsonP4ss!7", "user": "svc"}', "JsonP4ss!7"),  # (JSON held in a repr: escaped twice)
])
def test_a_secret_in_a_protocol_or_a_service_form_is_redacted(text, secret):
    out = redact_text(text, home="")
    assert secret not in out and "<redacted" in out


@pytest.mark.parametrize("text", ["printf '%s\\n' hello | grep h", "rollbar.init(config)", "text = <<EOT\nhello\nEOT",
                                  "echo done | tee x", r'x = "\\u0041BC"'])
def test_their_lookalikes_stay(text):
    assert redact_text(text, home="") == text


@pytest.mark.parametrize(("text", "redacted"), [
    ("New access token expires on Fri Jan 01 2027: 3f9a2b7c1d4e5f60718293a4b5c6d7e8f9a0b1c2", True),
    ("access token fix landed in commit: 3f9a2b7c1d4e5f60718293a4b5c6d7e8f9a0b1c2", False),
    ("the access token id for this session: 3f9a2b7c1d4e5f60718293a4b5c6d7e8", False),
    ("Access token cache hash: 3f9a2b7c1d4e5f60718293a4b5c6d7e8f9a0b1c2", False),
])
def test_an_access_token_given_after_its_words(text, redacted):
    """Round 31's one promised format left (Particle's CLI: words between the label and the hex): the value goes,
    unless the words say it is an id, a hash or a commit."""
    assert ("<redacted" in redact_text(text, home="")) is redacted


@pytest.mark.parametrize(("source", "secret"), [
    ("T = b'--- begin ---\\n$USER1$=/usr/lib/nagios/plugins\\n$USER3$=Cedar256~Onak74\\n--- end ---'\n",
     "Cedar256~Onak74"),
    ("T = '--- begin ---\\n# ~/.curlrc\\nuser = \"alice:Glacier499~Ktft20\"\\n--- end ---'\n", "Glacier499~Ktft20"),
])
def test_a_tools_password_in_a_literal_spelled_with_escapes_takes_the_literal(source, secret):
    """Round 31: a tool's syntax inside a literal whose source spells its line breaks as escapes was read only from
    the source, where the escapes hide the line's start: now from the literal's value too, the whole literal goes."""
    from reportkit.redact import redact_code

    out = redact_code(source, home="")
    assert secret not in out and '"<redacted>"' in out
    import ast

    ast.parse(out)
