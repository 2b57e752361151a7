/** The kevents release both binaries report (startup logs; the apiserver's `/version` gitVersion). */
export const keventsVersion = '0.1.0';
