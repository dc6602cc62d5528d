#ifndef UQUIZ_CTERMINAL_H
#define UQUIZ_CTERMINAL_H

/// The terminal's size in characters; returns -1 when `fd` is not a terminal or the size is unknown.
int uquiz_terminal_size(int fd, int *rows, int *columns);

/// Sets a terminal's size (for tests that resize a pseudo-terminal).
int uquiz_set_terminal_size(int fd, int rows, int columns);

/// Switches `fd` to raw input (no line editing, no echo; signals kept, so Ctrl-C still interrupts), saving the old
/// mode for `uquiz_restore_terminal`. Returns -1 on failure.
int uquiz_enter_raw_mode(int fd);

/// Puts back the mode saved by `uquiz_enter_raw_mode`; safe to call from a signal handler and more than once.
void uquiz_restore_terminal(int fd);

/// Installs a handler that restores the terminal and leaves the alternate screen, then dies of the same signal: for
/// SIGQUIT, which Swift's runtime would otherwise handle with its backtracer while the terminal stays raw.
int uquiz_restore_terminal_on_signal(int signal_number);

#endif
