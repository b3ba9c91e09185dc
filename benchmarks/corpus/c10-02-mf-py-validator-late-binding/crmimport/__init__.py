"""crmimport: clean and validate contact exports before they reach the CRM."""
