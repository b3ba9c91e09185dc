"""defectnet: fine-tune a small pretrained CNN to flag defective parts on the line camera."""
