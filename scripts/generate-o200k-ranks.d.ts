/** Types of generate-o200k-ranks.js, for its tests. */
export declare const rankFilePath: string;
export declare function generateO200kRanks(): Promise<Buffer>;
