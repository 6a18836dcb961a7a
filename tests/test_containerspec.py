"""A pasted Docker Compose service or Kubernetes container spec (containerspec.py): read as the
command line it runs, so a deployment file fills the form like a vllm serve line."""

from __future__ import annotations

import pytest

from kvcalc.commandline import read_command

COMPOSE_FLOW = """services:
  vllm:
    image: vllm/vllm-openai:v0.31.0
    runtime: nvidia
    environment:
      - VLLM_USE_FLASHINFER_SAMPLER=1
      - HF_TOKEN=${HF_TOKEN}
    command: ["--model", "Qwen/Qwen3-8B", "--max-model-len", "8192", "--gpu-memory-utilization", "0.85"]
    ports:
      - "8000:8000"
"""

COMPOSE_FOLDED = """services:
  vllm:
    image: "vllm/vllm-openai:latest"
    environment:
      VLLM_ALLOW_LONG_MAX_MODEL_LEN: "1"
    command: >
      --model Qwen/Qwen3-8B
      --max-model-len 8192
      --tensor-parallel-size 2
    ipc: host
"""

KUBERNETES = """apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
      - name: vllm
        image: vllm/vllm-openai:v0.30.0
        command: ["vllm", "serve"]
        args:
        - Qwen/Qwen3-8B
        - --max-model-len=16384
        - "--gpu-memory-utilization=0.9"
        - --port=8000
        env:
        - name: VLLM_USE_V2_MODEL_RUNNER
          value: "0"
        - name: HF_TOKEN
          valueFrom:
            secretKeyRef: {name: hf, key: token}
        resources:
          limits:
            nvidia.com/gpu: 1
"""

KUBERNETES_MODULE = """      containers:
        - name: server
          image: registry.local/custom-vllm:1.0
          command:
            - python3
            - -m
            - vllm.entrypoints.openai.api_server
          args: ["--model", "Qwen/Qwen3-8B", "--tensor-parallel-size", "4"]
"""


KUBERNETES_SCRIPT = """      containers:
        - name: vllm
          image: vllm/vllm-openai:v0.29.0
          env:
            - name: MODEL_ID
              value: Qwen/Qwen3-8B
          command: ["/bin/sh", "-c"]
          args:
            - |
              pip install --no-cache-dir hf_transfer
              exec vllm serve "$MODEL_ID" \\
                --max-model-len 8192 \\
                --tensor-parallel-size 2 --port 8000
"""


@pytest.mark.parametrize("spec, settings, ignored", [
    (COMPOSE_FLOW, {"vllm_version": "0.31.0", "flashinfer_sampler": True, "max_model_len": 8192,
                    "gpu_memory_utilization": 0.85}, []),
    (COMPOSE_FOLDED, {"allow_long_max_model_len": True, "max_model_len": 8192, "tensor_parallel_size": 2}, []),
    (KUBERNETES, {"vllm_version": "0.30.0", "model_runner_v2": False, "max_model_len": 16384,
                  "gpu_memory_utilization": 0.9}, ["--port"]),
    (KUBERNETES_MODULE, {"tensor_parallel_size": 4}, []),
    (KUBERNETES_SCRIPT, {"vllm_version": "0.29.0", "max_model_len": 8192, "tensor_parallel_size": 2}, ["--port"]),
])
def test_a_deployment_spec_reads_as_the_command_it_runs(spec, settings, ignored):
    got = read_command(spec)
    assert got["model"] == "Qwen/Qwen3-8B" and got["settings"] == settings
    assert got["ignored"] == ignored and got["refused"] == {} and got["unknown"] == []
