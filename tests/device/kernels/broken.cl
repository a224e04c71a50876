// A file kernel with a mistake on line 4.
int x = idx[0];

out(x) = x + not_declared_here;
