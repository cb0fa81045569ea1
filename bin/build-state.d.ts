export declare const ROOT: string;
export declare const STAMP: string;
export declare function sourceFingerprint(sources?: string): string;
export declare function isBuildCurrent(dist?: string, sources?: string): boolean;
