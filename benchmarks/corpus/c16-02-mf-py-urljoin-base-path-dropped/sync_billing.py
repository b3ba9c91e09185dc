import argparse
import sys

from billing import ApiClient, ReplayTransport, load_settings, sync_invoices


def main(argv=None):
    parser = argparse.ArgumentParser(description="pull invoices from the billing API into the ledger")
    parser.add_argument("--only-open", action="store_true", help="skip paid invoices")
    args = parser.parse_args(argv)

    settings = load_settings()
    transport = ReplayTransport()
    client = ApiClient(settings, transport)
    totals = sync_invoices(client, settings, only_open=args.only_open)
    for customer, total in sorted(totals.items()):
        print(f"{customer:<10} {total:>10} {settings['currency']}")
    print(f"{len(transport.calls)} requests", file=sys.stderr)


if __name__ == "__main__":
    main()
