#include "cterminal.h"

#include <sys/ioctl.h>
#include <termios.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static struct termios saved;
static volatile int saved_valid = 0;

int uquiz_terminal_size(int fd, int *rows, int *columns) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) return -1;
    *rows = size.ws_row;
    *columns = size.ws_col;
    return 0;
}

int uquiz_set_terminal_size(int fd, int rows, int columns) {
    struct winsize size = {0};
    size.ws_row = (unsigned short)rows;
    size.ws_col = (unsigned short)columns;
    return ioctl(fd, TIOCSWINSZ, &size);
}

int uquiz_enter_raw_mode(int fd) {
    struct termios raw;
    if (tcgetattr(fd, &saved) != 0) return -1;
    saved_valid = 1;
    raw = saved;
    raw.c_lflag &= ~(ICANON | ECHO | IEXTEN);
    raw.c_iflag &= ~(IXON | ICRNL);
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    return tcsetattr(fd, TCSAFLUSH, &raw);
}

void uquiz_restore_terminal(int fd) {
    if (saved_valid) tcsetattr(fd, TCSAFLUSH, &saved);
}

/* Mouse reporting off too: the area picker turns it on. */
static const char leave_screen[] = "\x1b[?1000l\x1b[?1006l\x1b[0m\x1b[?25h\x1b[?1049l";

/* Runs in the signal's context, so only async-signal-safe calls: restore the saved modes, leave the alternate screen,
   then die of the same signal with its default action. */
static void restore_and_reraise(int signal_number) {
    if (saved_valid) tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved);
    ssize_t ignored = write(STDOUT_FILENO, leave_screen, sizeof leave_screen - 1);
    (void)ignored;
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

int uquiz_restore_terminal_on_signal(int signal_number) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = restore_and_reraise;
    sigemptyset(&action.sa_mask);
    return sigaction(signal_number, &action, NULL);
}
