import logging

import torch
from torch.utils.data import DataLoader, TensorDataset

log = logging.getLogger(__name__)


class Trainer:
    def __init__(self, model: torch.nn.Module, lr: float, batch_size: int):
        self.model = model
        self.batch_size = batch_size
        self.opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
        self.loss_fn = torch.nn.HuberLoss(delta=5.0)

    def fit(self, features: torch.Tensor, targets: torch.Tensor, epochs: int) -> float:
        loader = DataLoader(TensorDataset(features, targets), batch_size=self.batch_size, shuffle=True)
        loss = torch.tensor(float("nan"))
        for epoch in range(epochs):
            self.model.train()
            for xb, yb in loader:
                self.opt.zero_grad()
                loss = self.loss_fn(self.model(xb), yb)
                loss.backward()
                self.opt.step()
            log.info("epoch %d: loss %.3f", epoch, loss.item())
        return loss.item()
