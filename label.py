def label(total):
    return "Total : %s EUR" % total
