export declare const NEXT_SUITE_PACKAGE: string;
export declare const NEXT_SUITE_VERSION: string;
export declare const AUTH_2026_ONLY: readonly string[];
export declare const CLIENT_SCENARIOS_2026: readonly string[];
export declare const EXTENSION_CLIENT_SCENARIOS_2026: readonly string[];
