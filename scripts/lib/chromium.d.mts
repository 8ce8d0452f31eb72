/** Types of chromium.mjs, for the TypeScript tests that use it. */
export declare const CHROMIUM: string;
export declare const CHROMIUM_FLAGS: readonly string[];
