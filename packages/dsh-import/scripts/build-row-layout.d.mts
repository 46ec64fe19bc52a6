/** The types of build-row-layout.mjs (the row layout's views, for the staleness test). */
export declare const ROW_LAYOUT_TARGETS: { readonly assembly: string; readonly typescript: string };
export declare function rowLayoutViews(): [path: string, text: string][];
