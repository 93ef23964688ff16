#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Records PyTorch profiler (Kineto) chrome traces of two small real models on the GPU, the input that
# `wavefit audit` reads for NVIDIA (and, from ROCm builds of PyTorch, for AMD). Run on a machine with a
# CUDA (or ROCm) build of PyTorch:  python3 record_kineto.py OUT_DIR
# Writes OUT_DIR/kineto_<model>.json.gz and prints, per model, how many kernel events the trace holds.
import gzip
import json
import os
import shutil
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile


class Block(nn.Module):
    """One pre-norm decoder block: the kernels an LLM serving stack launches per layer."""

    def __init__(self, width, heads):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.norm2 = nn.LayerNorm(width)
        self.up = nn.Linear(width, 4 * width)
        self.down = nn.Linear(4 * width, width)

    def forward(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(b, t, 3, self.heads, c // self.heads).unbind(2)
        a = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), is_causal=True)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, c))
        return x + self.down(F.gelu(self.up(self.norm2(x))))


class TinyLM(nn.Module):
    def __init__(self, vocab=32000, width=512, heads=8, layers=4):
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.blocks = nn.ModuleList(Block(width, heads) for _ in range(layers))
        self.head = nn.Linear(width, vocab, bias=False)

    def forward(self, tokens):
        x = self.embed(tokens)
        for blk in self.blocks:
            x = blk(x)
        logits = self.head(x)
        # Sampling-side kernels: small ones that often dominate nobody's attention.
        probs = torch.softmax(logits[:, -1].float(), dim=-1)
        top = torch.topk(probs, 50, dim=-1)
        return torch.cumsum(top.values, dim=-1), logits.argmax(-1)


def small_cnn():
    import torchvision

    return torchvision.models.resnet18(num_classes=100)


def record(name, model, make_input, out_dir, steps=3):
    model = model.cuda().eval()
    inp = make_input()
    with torch.no_grad():
        for _ in range(2):  # warm-up: cuDNN/cuBLAS heuristics, lazy module loading
            model(inp)
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            for _ in range(steps):
                model(inp)
            torch.cuda.synchronize()
    raw = os.path.join(out_dir, f"kineto_{name}.json")
    prof.export_chrome_trace(raw)
    with open(raw, "rb") as src, gzip.open(raw + ".gz", "wb", compresslevel=9) as dst:
        shutil.copyfileobj(src, dst)
    os.remove(raw)
    with gzip.open(raw + ".gz", "rt") as f:
        events = json.load(f)["traceEvents"]
    kernels = [e for e in events if e.get("cat") == "kernel"]
    print(f"{name}: {len(kernels)} kernel events, {os.path.getsize(raw + '.gz')} bytes gzipped")


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else "."
    os.makedirs(out_dir, exist_ok=True)
    torch.manual_seed(0)
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name(0)}")
    with torch.autocast("cuda", dtype=torch.float16):
        record("tinylm_h200", TinyLM(), lambda: torch.randint(0, 32000, (8, 256), device="cuda"), out_dir)
        record("resnet18_h200", small_cnn(), lambda: torch.randn(16, 3, 224, 224, device="cuda"), out_dir)


if __name__ == "__main__":
    main()
