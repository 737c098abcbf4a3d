exec(open('edit_xgroup.py').read())
# The factored schedule loads x after h C^T has retired (not under the state's conversion), so that
# the state's bf16 operand and x are not live together.
old="""            load_x_transposed();  // (its ldmatrix latency under the state's conversion)
            issue_state_readout(Int<0>{});"""
assert old in s; s=s.replace(old,"""            issue_state_readout(Int<0>{});""")
old="""            retire_state_readout();
            scale_state_operand();  // (X diag(w))^T: the intra GEMM's A operand and the update's
"""
assert old in s; s=s.replace(old,"""            retire_state_readout();
            load_x_transposed();
            scale_state_operand();  // (X diag(w))^T: the intra GEMM's A operand and the update's
""")
