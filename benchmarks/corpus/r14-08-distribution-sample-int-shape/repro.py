# Quoted from https://github.com/pytorch/pytorch/issues/73826
# ("Better Error report in torch.distribution.*.sample (when passing a non-iterable)", nipunbatra, 2022-03-05).
# Unchanged except these header comments and the removal of the IPython `In [n]:` prompts (the three inputs are kept verbatim); runs on CPU as posted.
import torch
dist = torch.distributions
dist.Normal(0.5, 1).sample(100)
