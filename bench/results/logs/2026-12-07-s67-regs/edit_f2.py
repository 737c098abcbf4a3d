old="""            scale_state_operand();  // (X diag(w))^T: the intra GEMM's A operand and the update's
            retire_state_readout();
"""
new="""            retire_state_readout();
            scale_state_operand();  // (X diag(w))^T: the intra GEMM's A operand and the update's
"""
assert old in s
s=s.replace(old,new)
