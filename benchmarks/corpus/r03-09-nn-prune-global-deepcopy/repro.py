import copy

import torch.nn as nn
import torch.nn.utils.prune as prune

# adaptation: the snippet leaves these undefined
encoder_layers = [nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4)]
pruning_threshold = 0.5


class tester(nn.Module):
    def __init__(self):
        super().__init__()  # adaptation: missing in the snippet
        # Encoder
        self.tester = nn.Sequential(*encoder_layers)

        # Set the pruning method
        parameters_to_prune = []
        for param in self.tester:
            if isinstance(param, nn.Linear):
                parameters_to_prune.append((param, "weight"))

        # Add pruning
        prune.global_unstructured(
            parameters_to_prune,
            pruning_method=prune.L1Unstructured,
            amount=pruning_threshold
        )

def main():
    model = tester()
    model_copy = copy.deepcopy(model)  # adaptation: the snippet named this `copy`, shadowing the module


main()
