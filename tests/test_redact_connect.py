"""Database, SSH and directory clients that take a password by position (issue 35, item 5): the documented
signatures of paramiko's ``SSHClient.connect(hostname, port, username, password)``, PyMySQL's/MySQLdb's/pymssql's
``connect(host, user, password, db)``, cx_Oracle's ``connect(user, password, dsn)`` and ``connect("user/pw@dsn")``,
ldap3's ``Connection(server, user, password)`` imported bare, pysmb's ``SMBConnection``, ibm_db's and pg8000's
``connect``, imaplib's/smtplib's ``login`` and poplib's ``pass_``; in code (which still parses)
and in text (a traceback's source line). Beside each, the same calls with no credential stay."""

from __future__ import annotations

import ast
import secrets
import string

import pytest

from reportkit.redact import redact_code, redact_text


def pw() -> str:
    return "".join(secrets.choice(string.ascii_letters) for _ in range(6)) + str(secrets.randbelow(90) + 10) + "!x"


CALLS = [
    'ssh.connect("db.example.com", 22, "deploy", "{pw}")',
    'client = paramiko.SSHClient()\nclient.connect("10.0.0.5", 2222, "root", "{pw}", timeout=5)',
    'paramiko.SSHClient().connect("h", 22, "root", "{pw}")',
    'conn = pymysql.connect("localhost", "root", "{pw}", "shop")',
    'conn = MySQLdb.connect("localhost", "root", "{pw}", "shop")',
    'conn = connect("db", "sa", "{pw}", "sales")',
    'conn = pymssql.connect("sqlserver", "sa", "{pw}", "sales")',
    'conn = cx_Oracle.connect("scott", "{pw}", "db:1521/orcl")',
    'pool = cx_Oracle.SessionPool("scott", "{pw}", "db:1521/orcl")',
    'conn = Connection(server, "cn=admin,dc=example,dc=org", "{pw}")',
    'conn = ldap3.Connection(server, "cn=admin,dc=example,dc=org", "{pw}", auto_bind=True)',
    'M = imaplib.IMAP4_SSL("imap.example.com")\nM.login("me@example.com", "{pw}")',
    'server.login("me@example.com", "{pw}")',
    'pop.pass_("{pw}")',
    'conn = SMBConnection("svc", "{pw}", "client", "fileserver", use_ntlm_v2=True)',
    'conn = ibm_db.connect("SAMPLE", "db2inst1", "{pw}")',
    'conn = pg8000.connect("app", "db.local", "app", 5432, "{pw}")',
    'conn = cx_Oracle.connect("scott/{pw}@db:1521/orcl")',
    'conn = oracledb.connect(dsn="scott/{pw}@db/orcl")',
]


@pytest.mark.parametrize("call", CALLS)
def test_a_password_given_by_position_is_redacted_in_code(call):
    password = pw()
    source = call.format(pw=password) + "\nprint('ok')\n"
    out = redact_code(source, env={}, home="")
    assert password not in out, out
    ast.parse(out)


@pytest.mark.parametrize("call", CALLS)
def test_a_password_given_by_position_is_redacted_in_a_traceback(call):
    password = pw()
    line = call.format(pw=password).splitlines()[-1]
    text = f'  File "/app/db.py", line 12, in <module>\n    {line}\nOperationalError: (1045, "Access denied")\n'
    out = redact_text(text, env={}, home="")
    assert password not in out, out


@pytest.mark.parametrize("call", [
    'client.connect("broker.local", 1883, 60)',  # paho-mqtt: host, port, keepalive
    'db = sqlite3.connect("app.db")',
    'sock.connect(("10.0.0.1", 8080))',
    'conn = pymysql.connect("localhost", "root", "", "analytics")',
    'ssh.connect("h", 22, "root", key_filename="/home/me/.ssh/id_ed25519")',
    'ssh.connect("h", 22, "root", password)',
    'conn = cx_Oracle.connect("scott", oracle_password, "db:1521/orcl")',
    'conn = Connection(server, "cn=admin,dc=example,dc=org", auto_bind=True)',
    'conn = connect("db", "reporting", "readonly", "sales")',
    'engine.connect()',
    'conn = cx_Oracle.connect("db.example.com:1521/orcl")',
    'conn = SMBConnection("svc", "", "client", "fileserver")',
])
def test_the_same_calls_without_a_credential_stay(call):
    source = call + "\n"
    assert redact_code(source, env={}, home="") == source
    assert redact_text(call, env={}, home="") == call
