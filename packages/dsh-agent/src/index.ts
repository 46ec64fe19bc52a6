/** @module dsh-agent */
export {};
