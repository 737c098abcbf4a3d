exec(open('edit_f2.py').read())
old="""          } else {
            exact_tile();
          }
        } else if constexpr (!K::kLeanSchedule) {"""
new="""          } else {
            if constexpr (kOneBuffer) store_previous_y();
            mask();
            if constexpr (kOneBuffer) await_output_buffer();
            store_scores();
            issue_state_readout(Int<0>{});
            if constexpr (kOneBuffer) publish_scores_only();
            else publish_scores();
            retire_state_readout();
            issue_state_readout(Int<1>{});
            retire_state_readout();
            load_x_transposed();
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
            if constexpr (kOneBuffer) sync_consumer();
            epilogue(kZRingNotStarted);
            retire_all();
          }
        } else if constexpr (!K::kLeanSchedule) {"""
assert old in s
s=s.replace(old,new)
