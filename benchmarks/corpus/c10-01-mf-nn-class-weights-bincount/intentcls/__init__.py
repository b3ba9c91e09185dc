"""intentcls: route incoming support tickets to the right queue by their intent."""
