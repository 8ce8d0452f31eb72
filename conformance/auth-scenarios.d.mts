/** The 22 auth client scenarios of suite 0.1.16 (`auth/<name>`). */
export declare const AUTH_CLIENT_SCENARIOS: readonly string[];
