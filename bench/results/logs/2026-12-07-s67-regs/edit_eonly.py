s=s.replace("if (factored_scale != 0.f) {","if (factored_scale != factored_scale && false) {")
