"""defects: classify weld seams from the line's current, voltage and temperature sensors."""
