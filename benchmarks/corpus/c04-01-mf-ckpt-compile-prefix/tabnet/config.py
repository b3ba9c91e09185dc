from dataclasses import dataclass, field


@dataclass
class TabConfig:
    num_features: int = 12
    num_classes: int = 3
    hidden: tuple = (32, 16)
    dropout: float = 0.1
    lr: float = 1e-2
    compile: bool = True
    backend: str = "eager"
    tags: dict = field(default_factory=lambda: {"run": "nightly"})

    def describe(self):
        layers = " -> ".join(str(h) for h in (self.num_features, *self.hidden, self.num_classes))
        return f"TabularNet[{layers}] dropout={self.dropout} compile={self.compile}"
