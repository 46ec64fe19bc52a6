/** @module dsh-session */
export {};
