"""churn: predict which subscribers cancel next month."""
