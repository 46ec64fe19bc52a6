/** @module dsh-session/fork */
export {};
