exec(open('edit_elean.py').read())
old="""            load_x_transposed();
            issue_scores_readout();
            scale_state_operand();
            decay_state();
            wait_turn();
            issue_state_update();
            pass_turn();
            next_stage();
            warpgroup_wait<1>();
            warpgroup_fence_operand(tYrX);
            warpgroup_fence_operand(acc_y);
            if constexpr (kOneBuffer) sync_consumer();"""
new="""            load_x_transposed();
            issue_scores_readout();
            warpgroup_wait<0>();
            warpgroup_fence_operand(tYrX);
            warpgroup_fence_operand(acc_y);
            scale_state_operand();
            decay_state();
            wait_turn();
            issue_state_update();
            pass_turn();
            next_stage();
            if constexpr (kOneBuffer) sync_consumer();"""
assert old in s
s=s.replace(old,new)
