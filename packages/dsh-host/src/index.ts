/** @module dsh-host */
export {};
