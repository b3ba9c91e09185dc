import torch

def validate_broken(x: torch.Tensor) -> None:
    has_nan = x.isnan().any()
    if has_nan:
        raise RuntimeError("NaN detected in tensor")

def _identity_broken(x: torch.Tensor) -> torch.Tensor:
    validate_broken(x)
    return x * 2

def main() -> None:
    batch = torch.randn(4, 8)
    _identity_broken(batch[0])
    print("Eager calls: OK")

    torch.func.vmap(_identity_broken)(batch)

if __name__ == "__main__":
    main()
