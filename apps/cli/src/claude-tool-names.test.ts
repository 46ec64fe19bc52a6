import { describe, expect, it } from 'vitest';
import { toolsToRemove } from './claude-tool-names.js';

const DSH = ['read_file', 'list_files', 'write_file', 'make_dir'];

describe('toolsToRemove', () => {
  it('maps Claude names to every dsh tool covering them; dsh names pass; a pattern removes the whole tool', () => {
    expect(toolsToRemove(['Write', 'Glob(*.ts) read_file'], DSH)).toEqual({
      remove: ['write_file', 'make_dir', 'list_files', 'read_file'],
      unknown: [],
    });
    expect(toolsToRemove(['Bash(git log:*),Edit'], DSH)).toEqual({ remove: ['write_file'], unknown: ['Bash'] });
  });

  it('reports names no dsh tool matches, prototype keys included', () => {
    expect(toolsToRemove(['constructor', 'toString', 'Frob'], DSH)).toEqual({ remove: [], unknown: ['constructor', 'toString', 'Frob'] });
  });
});
