/** The types of compile-wasm.mjs (the scanner's compile, for the staleness test). */
export declare const ASC_FLAGS: readonly string[];
export declare function compileWasm(): Promise<Buffer>;
